print("bts")
