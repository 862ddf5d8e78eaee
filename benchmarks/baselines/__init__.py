"""Hand-written pure-Python reference games, used only as speed baselines for the interpreter."""
