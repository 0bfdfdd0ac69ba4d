import Rivulet

print("Rivulet tour")
