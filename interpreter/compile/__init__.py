"""Compiling a checked program: the syntax tree becomes Python closures and generated
code (compiler: the passes, in order; expressions, statements, blocks, modifiers, views:
what the passes use), and the result a `CompiledGame` (game), kept between runs
(codecache, gamecache). Above check.
"""
