"""forgebench.util"""
