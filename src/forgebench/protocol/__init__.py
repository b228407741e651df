"""What is asked: probes (verbatim prompts), conditions (image variants) and tasks."""
