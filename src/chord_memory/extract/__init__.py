"""Extraction: finished transcripts in, reviewed memory out (SPEC section 5).

transcript -> normalized session -> scrubbed -> extractor -> validated reply
-> plan -> atomic writes -> index. Each arrow is one function.
"""
