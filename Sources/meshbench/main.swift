print("meshbench")
