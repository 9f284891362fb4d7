// Whether a component is still mounted, for answers that arrive after it left:
// those are dropped instead of updating a screen that is gone.
import { useEffect, useRef, type RefObject } from "react";

export function useMounted(): RefObject<boolean> {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
