"""Symmetry: canonical forms and transformations, compiled."""
