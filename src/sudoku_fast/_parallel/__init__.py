"""Parallel work: usable cores, the thread policy, the shared pool and the chunked fan-out."""
