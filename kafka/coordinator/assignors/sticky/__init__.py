"""kafka-python's package of the sticky assignor."""
