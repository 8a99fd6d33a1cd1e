"""The shared vocabulary of every room: C helpers (bits, clocks, stop flags, random numbers)."""
