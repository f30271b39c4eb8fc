"""Helpers shared by the tests (no tests here): the emulator world and probe bot, PostgreSQL
for the storage tests, builders of stored tables and games, the e2e play driver."""
