"""The bottom layer: what every other layer shares. Diagnostics and errors, the limits on
untrusted input, where the bundled files are, the cache directory, the game's random
generator, and the functions compiled rules call at run time (builtins, links). It imports
nothing of the interpreter above it.
"""
