"""Reading and summarising Skald records (Parquet) with polars."""
