"""Columns in and out: numpy, pandas, Arrow and polars inputs read into engine buffers,
answers given back in the caller's kind."""
