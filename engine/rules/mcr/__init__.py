"""国标麻将 (Chinese Official, MCR): fan table, scorer, wildcards and the calculator."""
