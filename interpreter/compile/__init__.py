"""Compiling a checked program: the syntax tree becomes Python closures and generated
code. compiler: the passes, in order, over the shared tables (tables); the compilers
they drive: declarations, expressions (with static, scope, ir, passes, emit),
modifiers, blocks, statements, views. The result is a `CompiledGame` (game, with its
step tables in steps and its queries in queries), kept between runs (codecache,
gamecache). Above check.
"""
