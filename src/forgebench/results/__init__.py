"""Results every suite shares: ``RUN/metrics.csv`` (the one reader and writer)."""
