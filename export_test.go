package toolnexus

import "reflect"

func reflectTypeFor[T any]() reflect.Type { return reflect.TypeFor[T]() }
