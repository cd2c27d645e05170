"""广东推倒胡: pong/kong only, big and small hu, kong settlement, dealer horses."""
