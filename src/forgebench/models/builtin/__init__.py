"""forgebench.models.builtin"""
