"""Checking a program before it is compiled: every name resolved, types and arity
(checker, types), what a declared view may show (views), what parsed of a
file with syntax errors (partial), and the index of rulebook
citations (rules_index). Above language.
"""
