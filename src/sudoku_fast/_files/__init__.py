"""Files: text and CSV streaming, Parquet in and out, deduplication, the progress bar."""
