"""The bodies of :mod:`forgebench.api`, one module per group of verbs (the public names are
:mod:`forgebench.api`'s)."""
