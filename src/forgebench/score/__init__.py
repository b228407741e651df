"""forgebench.score"""
