// Tests read JSON bodies without a cast at every call; production code keeps `unknown`.
declare global {
  interface Response {
    json(): Promise<any>;
  }
}
export {};
