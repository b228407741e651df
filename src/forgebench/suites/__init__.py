"""forgebench.suites"""
