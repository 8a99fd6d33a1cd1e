"""The technique solver and the Sudoku Explainer rater, compiled."""
