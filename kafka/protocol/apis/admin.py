"""Placeholder until the family is declared."""
