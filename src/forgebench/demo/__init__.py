"""forgebench.demo"""
