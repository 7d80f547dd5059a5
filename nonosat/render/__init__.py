"""Views of puzzles and solutions: Rich renderables for the terminal (`views`), SVG and PNG
sheets (`sheets`), and what keeps a terminal safe from the input (`terminal`)."""
