"""chuko: play and study the Chükö card games and Chuchula."""

__version__ = "0.1.0"
