"""Extraction: finished transcripts in, reviewed memory out (docs/extraction.md).

transcript -> normalized session -> scrubbed -> extractor -> validated reply
-> plan -> atomic writes -> index. Each arrow is one function.
"""
