"""Explaining a puzzle to a person: the steps of line logic (`steps`), the next move (`hint`),
how hard it is (`rating`), and why it has no solution (`diagnosis`)."""
