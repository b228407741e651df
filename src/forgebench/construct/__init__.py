"""forgebench.construct"""
