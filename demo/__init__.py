"""The demo: the real bot plays a game of each against three bot seats on the local Discord
emulator, printed as a transcript. Beside the product, like the emulator: `bot/` never imports it
and the Docker image does not carry it. Run it from a checkout: `python3 dev.py run --demo`."""
