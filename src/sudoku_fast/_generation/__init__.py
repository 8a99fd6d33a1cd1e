"""Puzzle generation: the compiled generator."""
