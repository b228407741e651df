"""forgebench.run"""
