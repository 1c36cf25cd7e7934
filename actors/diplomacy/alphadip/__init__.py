"""AlphaDip (Marinheiro 2016, 5.1.1) and the President shared with DipBlue (5.1.2)."""
