// RUN: ascend-opt %s -t schedule-json | filecheck %s
// A function without loops has an empty loop list.
// CHECK:      "name": "straight",
// CHECK-NEXT: "loops": []
func.func @straight() {
  return
}
