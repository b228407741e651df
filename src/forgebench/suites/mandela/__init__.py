"""forgebench.suites.mandela"""
