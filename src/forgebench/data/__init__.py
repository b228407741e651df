"""forgebench.data"""
