"""The language server: `gamedef lsp` (needs the optional extra `gamedef[lsp]`)."""
