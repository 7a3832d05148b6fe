print("relayctl")
