"""Diplomacy agents: DumbBot (and, later, DipBlue and AlphaDip) as Alpha offices."""
