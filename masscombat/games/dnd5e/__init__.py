"""D&D 5e in the web app: its battle adapter and its demo battle."""
