"""Variant Sudoku: the rule engine (compiled, with its pure-Python twin), rule records,
batch runs."""
