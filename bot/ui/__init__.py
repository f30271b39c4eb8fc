"""Everything of the tables that imports discord: buttons, messages, the click handlers."""
