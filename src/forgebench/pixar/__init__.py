"""forgebench.pixar"""
