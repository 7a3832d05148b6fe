print("meshnoded")
