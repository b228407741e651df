"""forgebench.report"""
