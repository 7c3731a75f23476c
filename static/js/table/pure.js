// A component that draws the same thing for the same props: Preact skips it (and all it
// holds) when an update passes equal props, which is most of the table's SVG art.
import { Component } from "preact";

function sameProps(a, b) {
  for (const key in a) if (a[key] !== b[key]) return false;
  for (const key in b) if (!(key in a)) return false;
  return true;
}

export function pure(draw, same = sameProps) {
  class Pure extends Component {
    shouldComponentUpdate(next) {
      return !same(this.props, next);
    }

    render(props) {
      return draw(props);
    }
  }
  Pure.displayName = draw.name;
  return Pure;
}
