"""CLI command modules; each registers its commands on :data:`forgebench._cli.app.verbs`."""
