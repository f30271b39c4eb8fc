"""Pictures of the table drawn with Pillow: card faces, the table, the end of a hand.

No discord import here (bot/ui sends the pictures); everything is drawn by the code: vector
shapes for the suits, and DejaVu Sans for the letters, with Noto Sans Devanagari for Hindi
(both shipped in fonts/, each under its own free licence).
"""
