"""HÉROS in the web app: its battle adapter and its demo battle."""
