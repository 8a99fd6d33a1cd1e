"""The renderer's private parts: one drawing model, written out as SVG, PDF or PNG.

`drawing` holds the model (lines, rectangles, circles, polylines and text on a page
measured in millimetres); `grid` draws a puzzle onto it; `layout` places grids on
pages (books, answer pages, solving-path sheets); `svg`, `pdf` and `png` write a
drawing out. `sudoku_fast.render` is the public front.
"""
