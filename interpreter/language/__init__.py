"""Reading a game: files read safely (sources), the Lark grammar's parser and its recovery
after a syntax error (parser, recovery), the syntax tree
(syntax), includes and variants assembled into one program (program), and the designers'
tables (tables, sheets). Above core only.
"""
