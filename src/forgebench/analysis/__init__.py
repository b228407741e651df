"""forgebench.analysis"""
